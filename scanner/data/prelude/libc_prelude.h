/* The C library and POSIX names real CUDA/C++ projects use, declared for a parse without system headers
 * (-nostdinc: every <stdio.h>, <dirent.h>, <glob.h> … is an empty stub). Without them, host code in a header
 * (file helpers, tokenizers, data loaders) fills the unit with errors and the main file loses its analysis.
 * Valid C and C++; the CUDA prelude includes it, and C files get it alone. Shapes are permissive. */
#ifndef __host__
#define __host__
#define __device__
#endif
#define NULL 0
#define EOF (-1)
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define BUFSIZ 8192
#define FILENAME_MAX 4096
#define PATH_MAX 4096
#define RAND_MAX 2147483647
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define CHAR_BIT 8
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295u
#define LONG_MAX 9223372036854775807L
#define LONG_MIN (-9223372036854775807L - 1)
#define ULONG_MAX 18446744073709551615UL
#define LLONG_MAX 9223372036854775807LL
#define ULLONG_MAX 18446744073709551615ULL
#define INT8_MAX 127
#define INT16_MAX 32767
#define INT32_MAX 2147483647
#define INT32_MIN (-2147483647 - 1)
#define INT64_MAX 9223372036854775807LL
#define UINT8_MAX 255
#define UINT16_MAX 65535
#define UINT32_MAX 4294967295u
#define UINT64_MAX 18446744073709551615ULL
#define SIZE_MAX 18446744073709551615UL
#define FLT_MAX 3.402823466e+38F
#define FLT_MIN 1.175494351e-38F
#define FLT_EPSILON 1.192092896e-07F
#define DBL_MAX 1.7976931348623158e+308
#define DBL_MIN 2.2250738585072014e-308
#define DBL_EPSILON 2.2204460492503131e-16
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#define HUGE_VAL __builtin_huge_val()
#define HUGE_VALF __builtin_huge_valf()
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#define CLOCKS_PER_SEC 1000000L
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define S_IRWXU 0700
#define S_IRUSR 0400
#define S_IWUSR 0200
#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR 2
#define O_CREAT 0100
#define O_TRUNC 01000
#define GLOB_NOSORT 4
#define GLOB_NOMATCH 3
#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf(x)
#define isfinite(x) __builtin_isfinite(x)
#define signbit(x) __builtin_signbit(x)
#define va_start(ap, last) __builtin_va_start(ap, last)
#define va_end(ap) __builtin_va_end(ap)
#define va_arg(ap, type) __builtin_va_arg(ap, type)
#define va_copy(dst, src) __builtin_va_copy(dst, src)
#define offsetof(type, member) __builtin_offsetof(type, member)
#define errno (*__rocport_errno())
#ifndef __cplusplus
#define static_assert _Static_assert
#endif

typedef __SIZE_TYPE__ size_t;
typedef long ssize_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef __UINTPTR_TYPE__ uintptr_t;
/* glibc's <sys/types.h> (reached through most C and C++ headers) also names these; Linux code uses them bare. */
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
typedef long long intmax_t;
typedef unsigned long long uintmax_t;
typedef long off_t;
typedef int pid_t;
typedef unsigned int mode_t;
typedef long time_t;
typedef long clock_t;
typedef int clockid_t;
typedef __builtin_va_list va_list;
typedef struct __rocport_FILE FILE;
typedef struct __rocport_DIR DIR;
struct timespec { time_t tv_sec; long tv_nsec; };
struct timeval { time_t tv_sec; long tv_usec; };
struct tm { int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year, tm_wday, tm_yday, tm_isdst; };
struct stat { unsigned long st_dev, st_ino; mode_t st_mode; off_t st_size; time_t st_mtime; };
struct dirent { unsigned long d_ino; unsigned char d_type; char d_name[256]; };
typedef struct { size_t gl_pathc; char **gl_pathv; size_t gl_offs; } glob_t;
typedef struct { int quot, rem; } div_t;

#ifdef __cplusplus
extern "C" {
#endif
extern FILE *stdout, *stderr, *stdin;
int *__rocport_errno(void);
__host__ __device__ int printf(const char *, ...);
int fprintf(FILE *, const char *, ...);
int sprintf(char *, const char *, ...);
int snprintf(char *, size_t, const char *, ...);
int vprintf(const char *, va_list);
int vfprintf(FILE *, const char *, va_list);
int vsnprintf(char *, size_t, const char *, va_list);
int scanf(const char *, ...);
int fscanf(FILE *, const char *, ...);
int sscanf(const char *, const char *, ...);
int puts(const char *);
int fputs(const char *, FILE *);
int fputc(int, FILE *);
int putc(int, FILE *);
int putchar(int);
int fgetc(FILE *);
int getc(FILE *);
int getchar(void);
char *fgets(char *, int, FILE *);
ssize_t getline(char **, size_t *, FILE *);
int fflush(FILE *);
FILE *fopen(const char *, const char *);
FILE *fdopen(int, const char *);
FILE *popen(const char *, const char *);
int pclose(FILE *);
int fclose(FILE *);
size_t fread(void *, size_t, size_t, FILE *);
size_t fwrite(const void *, size_t, size_t, FILE *);
int fseek(FILE *, long, int);
int fseeko(FILE *, off_t, int);
long ftell(FILE *);
off_t ftello(FILE *);
void rewind(FILE *);
int feof(FILE *);
int ferror(FILE *);
void clearerr(FILE *);
int fileno(FILE *);
void perror(const char *);
int remove(const char *);
int rename(const char *, const char *);
__host__ __device__ void *malloc(size_t);
__host__ __device__ void free(void *);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void *aligned_alloc(size_t, size_t);
int posix_memalign(void **, size_t, size_t);
__host__ __device__ void *memcpy(void *, const void *, size_t);
__host__ __device__ void *memset(void *, int, size_t);
void *memmove(void *, const void *, size_t);
int memcmp(const void *, const void *, size_t);
void *memchr(const void *, int, size_t);
size_t strlen(const char *);
size_t strnlen(const char *, size_t);
int strcmp(const char *, const char *);
int strncmp(const char *, const char *, size_t);
int strcasecmp(const char *, const char *);
int strncasecmp(const char *, const char *, size_t);
char *strcpy(char *, const char *);
char *strncpy(char *, const char *, size_t);
char *strcat(char *, const char *);
char *strncat(char *, const char *, size_t);
char *strdup(const char *);
char *strchr(const char *, int);
char *strrchr(const char *, int);
char *strstr(const char *, const char *);
char *strpbrk(const char *, const char *);
int sprintf_s(char *, size_t, const char *, ...);
int fopen_s(FILE **, const char *, const char *);
int strcpy_s(char *, size_t, const char *);
char *strndup(const char *, size_t);
char *strtok(char *, const char *);
char *strtok_r(char *, const char *, char **);
char *strerror(int);
size_t strspn(const char *, const char *);
size_t strcspn(const char *, const char *);
long strtol(const char *, char **, int);
unsigned long strtoul(const char *, char **, int);
long long strtoll(const char *, char **, int);
unsigned long long strtoull(const char *, char **, int);
double strtod(const char *, char **);
float strtof(const char *, char **);
char *getenv(const char *);
int setenv(const char *, const char *, int);
int unsetenv(const char *);
int atoi(const char *);
long atol(const char *);
long long atoll(const char *);
double atof(const char *);
int rand(void);
int rand_r(unsigned *);
void srand(unsigned);
long random(void);
void srandom(unsigned);
double drand48(void);
__host__ __device__ void exit(int);
void _exit(int);
__host__ __device__ void abort(void);
int atexit(void (*)(void));
int system(const char *);
void qsort(void *, size_t, size_t, int (*)(const void *, const void *));
void *bsearch(const void *, const void *, size_t, size_t, int (*)(const void *, const void *));
long labs(long);
long long llabs(long long);
div_t div(int, int);
int isalnum(int);
int isalpha(int);
int isdigit(int);
int isxdigit(int);
int isspace(int);
int isprint(int);
int ispunct(int);
int isupper(int);
int islower(int);
int iscntrl(int);
int toupper(int);
int tolower(int);
time_t time(time_t *);
clock_t clock(void);
int clock_gettime(clockid_t, struct timespec *);
int gettimeofday(struct timeval *, void *);
struct tm *localtime(const time_t *);
struct tm *gmtime(const time_t *);
size_t strftime(char *, size_t, const char *, const struct tm *);
double difftime(time_t, time_t);
int nanosleep(const struct timespec *, struct timespec *);
unsigned sleep(unsigned);
int usleep(unsigned);
int open(const char *, int, ...);
int close(int);
ssize_t read(int, void *, size_t);
ssize_t write(int, const void *, size_t);
off_t lseek(int, off_t, int);
int fsync(int);
int unlink(const char *);
int rmdir(const char *);
int access(const char *, int);
char *getcwd(char *, size_t);
int chdir(const char *);
pid_t getpid(void);
int gethostname(char *, size_t);
long sysconf(int);
int stat(const char *, struct stat *);
int fstat(int, struct stat *);
int lstat(const char *, struct stat *);
int mkdir(const char *, mode_t);
int chmod(const char *, mode_t);
DIR *opendir(const char *);
struct dirent *readdir(DIR *);
int closedir(DIR *);
int glob(const char *, int, int (*)(const char *, int), glob_t *);
void globfree(glob_t *);
void *mmap(void *, size_t, int, int, int, off_t);
int munmap(void *, size_t);
#ifdef __cplusplus
}
#endif

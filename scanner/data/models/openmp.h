/* ROCport's model of OpenMP's runtime API (`omp.h`) for a parse without a compiler's OpenMP headers: the host side of
 * GPU projects splits CPU work with it (`omp_get_max_threads()`, `omp_set_num_threads(n)`). Not a reimplementation. */
#ifndef ROCPORT_MODEL_OPENMP_H
#define ROCPORT_MODEL_OPENMP_H
#pragma clang system_header
#ifdef __cplusplus
extern "C" {
#endif
typedef struct __rocport_omp_lock *omp_lock_t;
typedef struct __rocport_omp_lock *omp_nest_lock_t;
typedef enum omp_sched_t { omp_sched_static = 1, omp_sched_dynamic, omp_sched_guided, omp_sched_auto } omp_sched_t;
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
void omp_set_num_threads(int);
void omp_set_dynamic(int);
int omp_get_dynamic(void);
void omp_set_nested(int);
int omp_get_nested(void);
int omp_get_level(void);
int omp_get_thread_limit(void);
void omp_set_schedule(omp_sched_t, int);
void omp_get_schedule(omp_sched_t *, int *);
double omp_get_wtime(void);
double omp_get_wtick(void);
void omp_init_lock(omp_lock_t *);
void omp_destroy_lock(omp_lock_t *);
void omp_set_lock(omp_lock_t *);
void omp_unset_lock(omp_lock_t *);
int omp_test_lock(omp_lock_t *);
void omp_init_nest_lock(omp_nest_lock_t *);
void omp_destroy_nest_lock(omp_nest_lock_t *);
void omp_set_nest_lock(omp_nest_lock_t *);
void omp_unset_nest_lock(omp_nest_lock_t *);
#ifdef __cplusplus
}
#endif
#endif

"""`python -m scanner.worker`: one analysing process of scanner.pool (protocol on stdin/stdout)."""

from scanner.pool import worker_main

if __name__ == "__main__":
    worker_main()

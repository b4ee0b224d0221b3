"""Containers and orchestration: CUDA base images, the NVIDIA container runtime, docker run flags, compose, Kubernetes."""

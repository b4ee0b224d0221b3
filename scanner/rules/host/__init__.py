"""Host setup: NUMA auto-balancing on MI300X-class hosts (a repository-level rule), __AMDGCN_WAVEFRONT_SIZE in build settings."""

"""Migration progress: what is done, what is left, and when it will be finished."""

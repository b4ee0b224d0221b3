"""Merge requests ROCport opens: reviewed translations committed on a port branch, pushed, proposed, tracked."""

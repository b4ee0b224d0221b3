"""Portal tests of merge requests (ports pushed as branches)."""

"""Portal tests of the scan pipeline, CI uploads and exports."""

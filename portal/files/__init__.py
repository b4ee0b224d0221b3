"""A scanned file's page: its source, the HIP translation as a diff, the compile check's status, reviews and the
patch download. Reads portal.scans and portal.findings."""

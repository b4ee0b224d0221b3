"""Scans made in CI and posted to the portal: the endpoint (views), the report's checked reading (parsing), the
ingestion entry (actions, built on the pipeline's own record and summary), and the stand-ins that speak for an
upload's files, which carry no blob. Imports portal.scans' models, constants, signals and pipeline (ingestion,
endings), portal.accounts, portal.repositories and portal.findings; nothing imports it but the URLs and what
compares blobs (stand_ins, a leaf that portal.reporting and the file pages read)."""

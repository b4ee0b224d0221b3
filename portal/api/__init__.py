"""The REST API (/api/v1/, Django Ninja): repositories, scans, findings, statistics; personal tokens or session."""

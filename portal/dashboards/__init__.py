"""The portfolio and a repository's dashboard pages (views only): the figures and the charts' geometry come from
portal.reporting; writes nothing."""

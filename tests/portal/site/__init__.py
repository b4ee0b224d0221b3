"""Portal tests of what spans the whole site: access, languages, settings, security, error pages."""

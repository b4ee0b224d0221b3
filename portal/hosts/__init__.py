"""The git hosts ROCport talks to (GitHub, GitLab, Gitea, Forgejo), one module each behind one interface
(`base.GitHost`) and one registry (`registry`): webhook verification and parsing, the commit-status endpoint and
its auth, pull / merge requests and their numbering, the setup text of the settings page, the defaults read from
a clone URL. Every other app reaches a host through the registry, by the id stored in its rows.

May import Django (settings, translation), the standard library and portal.repositories.urlcheck; never another
portal app's models, so that any app's models can take their choices from here."""

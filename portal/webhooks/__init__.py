"""Git host webhooks (GitHub, GitLab, Gitea/Forgejo): signatures checked, deliveries recorded once, pushes turned
into scans. Imports portal.repositories and portal.scans."""

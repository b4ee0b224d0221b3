"""Git host webhooks (every host of portal.hosts): signatures checked, deliveries recorded once, pushes turned
into scans. Imports portal.hosts, portal.repositories and portal.scans."""

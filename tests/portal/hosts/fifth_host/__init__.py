"""TinyForge: a fifth git host that exists only in the tests, to show that adding a host is one module (`host.py`)
plus its recorded deliveries (`fixtures/`), registered through portal.hosts.registry and nothing else edited.
Imports portal.hosts only."""

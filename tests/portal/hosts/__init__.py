"""Portal tests of the git hosts: the registry, and a fifth host added as a plug-in."""

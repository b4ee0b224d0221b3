"""What every rule of a file shares: the syntax tree's Nodes, the Context a rule sees, the #if branches HIP-Clang
compiles and what the repository's own port does to a finding. Imports scanner.parsing; never a rule module."""

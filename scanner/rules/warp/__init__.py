"""The warp family (ROC101-110): 32-lane assumptions on 64-lane wavefronts. `_common` and `_shapes` are the
family's helpers, `_groups` decides whether a function keeps to 32-lane groups. Imports scanner.analysis and
scanner.rules.base."""

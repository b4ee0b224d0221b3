"""scanner.tree_walk: the one walk that the include index, the port's `.hip` search and the clone-size check share."""

from __future__ import annotations

import os
import subprocess

from scanner.tree_walk import walk_entries


def _relative(root, entries) -> set[str]:
    return {os.path.relpath(entry.path, root) for entry in entries}


def test_a_tree_deeper_than_the_recursion_limit_is_walked_to_its_bottom(tmp_path):
    folder = tmp_path
    try:
        for _ in range(1_200):  # one mkdir per level: os.makedirs itself recurses
            folder = folder / "d"
            folder.mkdir()
        (folder / "bottom.cu").write_text("")
        names = [entry.name for entry in walk_entries(str(tmp_path))]
    finally:
        # pytest's own clean-up of old temporary directories (shutil.rmtree) recurses per level; rm does not
        subprocess.run(["rm", "-rf", "--", str(tmp_path / "d")], check=True)
    assert names.count("d") == 1_200
    assert "bottom.cu" in names


def test_a_symlink_is_listed_and_never_followed(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "inside.h").write_text("")
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    (tmp_path / "loop").symlink_to(tmp_path, target_is_directory=True)
    assert _relative(tmp_path, walk_entries(str(tmp_path))) == {"real", "real/inside.h", "link", "loop"}


def test_enter_prunes_a_folder_but_still_lists_it(tmp_path):
    for folder in ("src", ".git", "node_modules/pkg"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "a.hip").write_text("")
    listed = _relative(tmp_path, walk_entries(str(tmp_path), enter=lambda f: f.name not in (".git", "node_modules")))
    assert listed == {"src", "src/a.hip", ".git", "node_modules"}


def test_a_missing_root_yields_nothing(tmp_path):
    assert list(walk_entries(str(tmp_path / "absent"))) == []

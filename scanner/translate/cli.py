"""`python -m scanner translate`: translate a file or a tree, write .hip files, a diff and statistics."""

from __future__ import annotations

import sys
from pathlib import Path

from scanner import config
from scanner.translate import LAUNCH_CHEVRONS, LAUNCH_GGL, TranslateOptions, TranslationStats, Translator
from scanner.translate.tree import TreeWriter, translate_tree


def options_from(args) -> TranslateOptions:
    if args.hip_kernel_execution_syntax and args.cuda_kernel_execution_syntax:
        raise ValueError("--hip-kernel-execution-syntax and --cuda-kernel-execution-syntax exclude each other")
    launch = LAUNCH_GGL if args.hip_kernel_execution_syntax else args.launch_syntax
    if args.cuda_kernel_execution_syntax:
        launch = LAUNCH_CHEVRONS
    if args.timeout <= 0:
        raise ValueError("--timeout must be positive")
    return TranslateOptions(
        backend=args.backend,
        roc=args.roc,
        launch_syntax=launch,
        experimental=args.experimental,
        translate_comments=args.translate_comments,
        translate_strings=args.translate_strings,
        hipify_clang=args.hipify_clang,
        cuda_path=args.cuda_path,
        include_dirs=tuple(args.include_dirs),
        timeout_seconds=args.timeout,
    )


def run_translate(args) -> int:
    root = Path(args.path)
    if not root.exists():
        raise ValueError(f"no such file or directory: {root}")
    translator = Translator(options_from(args))
    out_dir = Path(args.out_dir) if args.out_dir else root.resolve().parent / f"{root.resolve().name}-hip"
    if out_dir.resolve() == root.resolve() or (
        root.is_dir() and root.resolve() in out_dir.resolve().parents and not args.exclude
    ):
        # Writing into the tree being translated would translate our own output next time.
        raise ValueError(f"choose an output directory outside {root} (-o)")
    exclude = tuple(args.exclude)
    if root.is_dir():
        exclude += config.load(root).exclude  # the repository's .rocport.toml excludes vendored code here too
    writer = TreeWriter(out_dir, args.stats)
    total, errors, fallbacks, unconverted = TranslationStats(), [], [], {}
    for item in translate_tree(root, translator, exclude):
        writer.add(item)
        result = item.result
        if result.error:
            errors.append(f"{item.rel}: {result.error}")
            continue
        total.add(result.stats)
        if result.fallback_reason:
            fallbacks.append(f"{item.rel}: {result.fallback_reason}")
        for name, count in result.stats.unconverted_by_name.items():
            unconverted[name] = unconverted.get(name, 0) + count
    stats_path = writer.close()
    out = sys.stdout
    out.write(f"Translated {total.files} files with {translator.description} into {out_dir}\n")
    out.write(
        f"  CUDA references: {total.converted} converted, {total.unconverted} without a HIP equivalent "
        f"({total.conversion_percent:.1f}% converted)\n"
    )
    out.write(
        f"  lines changed: {total.changed_lines} of {total.total_lines}; files changed: {total.converted_files}\n"
    )
    if unconverted:
        top = sorted(unconverted.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
        out.write("  left unconverted: " + ", ".join(f"{name} ({n})" for name, n in top) + "\n")
    for line in fallbacks:
        out.write(f"  fell back to the built-in translator: {line}\n")
    for line in errors:
        out.write(f"  not translated: {line}\n")
    out.write(f"  statistics: {stats_path}\n  diff: {out_dir / 'translation.diff'}\n")
    return 3 if errors and len(errors) == total.files + len(errors) else 0

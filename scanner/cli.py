"""`python -m scanner`: scan a checkout, explain a rule, list rules, regenerate docs/rules.md.

Exit codes (for CI): 0 no finding at or above --fail-on; 1 at least one; 2 bad usage or configuration (also an
upload that cannot start: no token, no commit); 3 the scan itself failed, or its upload (scanner/upload.py).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from tqdm import tqdm

from scanner import plan
from scanner.config import ConfigError, ScanOptions
from scanner.model import Severity
from scanner.report.formats import CLI_CHOICES, FORMATS, WriterOptions
from scanner.report.summary import Summary
from scanner.rules import catalogue, resolve, select
from scanner.rules.docs import explain, markdown
from scanner.target import _GFX, TargetError, TargetProfile

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_FAILURE = 0, 1, 2, 3
_FAIL_ON = [s.value for s in Severity] + ["never"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scanner", description="ROCport: CUDA -> ROCm/HIP migration scanner"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    scan = sub.add_parser("scan", help="scan a directory (a checkout)")
    scan.add_argument("path", help="directory to scan")
    scan.add_argument(
        "--format",
        choices=CLI_CHOICES,
        default="text",
        help="; ".join(f"{name}: {FORMATS[name].label}" for name in CLI_CHOICES) + " (default text)",
    )
    scan.add_argument("--output", "-o", help="write the report here instead of stdout")
    scan.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    scan.add_argument(
        "--fail-on",
        choices=_FAIL_ON,
        default="high",
        help="exit 1 when an unsuppressed finding has at least this severity (default high)",
    )
    scan.add_argument(
        "--target",
        action="append",
        dest="targets",
        metavar="GFX",
        help="AMD GPU target, repeatable (default gfx942, MI300X)",
    )
    scan.add_argument("--rocm", help="target ROCm version, e.g. 7.0 (default: current production release)")
    scan.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="exclude paths (repeatable)")
    scan.add_argument("--include-dir", "-I", action="append", default=[], dest="include_dirs")
    scan.add_argument("--define", "-D", action="append", default=[], dest="defines")
    scan.add_argument("--compile-commands", help="compile_commands.json (relative to PATH or absolute)")
    scan.add_argument("--cuda-path", help="a real CUDA toolkit, to raise fidelity (never required)")
    scan.add_argument("--timeout", type=float, help="per-file time limit in seconds (default 60)")
    scan.add_argument("--max-file-bytes", type=int, help="skip (with an error result) files larger than this")
    scan.add_argument("--no-config", action="store_true", help="ignore PATH/.rocport.toml")
    scan.add_argument(
        "--translate",
        action="store_true",
        help="also translate every file to HIP: statistics and diffs in the report (one pass)",
    )
    scan.add_argument(
        "--compile-check",
        action="store_true",
        help="also compile each file's HIP translation for an AMD target with hipcc (implies "
        "--translate): compile status per file, compiler errors as findings ROC901-ROC905",
    )
    scan.add_argument("--hipcc", default="", help="hipcc for --compile-check (default: hipcc on PATH)")
    scan.add_argument(
        "--hip-compiler",
        choices=("auto", "clang", "hipcc"),
        default="auto",
        help="--compile-check toolchain: clang with the ROCm headers the scanner ships (current HIP, "
        "the profile's own target), hipcc, or auto (hipcc if --hipcc is given, else clang, else "
        "hipcc on PATH)",
    )
    scan.add_argument(
        "--offload-arch",
        metavar="GFX",
        help="--compile-check target (default: the first --target hipcc builds for, else gfx90a)",
    )
    scan.add_argument(
        "--compile-arg",
        action="append",
        default=[],
        dest="compile_args",
        metavar="ARG",
        help="an extra compiler argument for --compile-check (repeatable)",
    )
    scan.add_argument("--show-suppressed", action="store_true", help="text format: list suppressed findings too")
    scan.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress bar on stderr (auto: when stderr is a terminal)",
    )
    scan.add_argument(
        "--upload",
        metavar="URL",
        help="send the JSON report to a ROCport portal at URL (needs --format json; the report goes "
        "to --output if given, not to stdout), with translation statistics (no diffs)",
    )
    scan.add_argument(
        "--token",
        help="personal API token for --upload; better: the ROCPORT_TOKEN environment "
        "variable, set from a CI secret, so that it never appears in a command line",
    )
    scan.add_argument(
        "--repository",
        type=int,
        metavar="ID",
        help="the portal's repository id (default: the one registered with the origin remote's URL)",
    )
    scan.add_argument("--commit", help="the scanned commit (default: HEAD of the checkout)")
    scan.add_argument("--branch", help="its branch (default: the checked-out branch, else the CI's branch variable)")

    translate = sub.add_parser("translate", help="translate CUDA to HIP (built-in translator or hipify-clang)")
    translate.add_argument("path", help="a file or a directory")
    translate.add_argument("-o", "--output", dest="out_dir", help="output directory (default: PATH-hip)")
    translate.add_argument("--backend", choices=("auto", "builtin", "hipify-clang"), default="auto")
    translate.add_argument("--stats", choices=("csv", "json"), default="csv", help="statistics file format")
    translate.add_argument("--roc", action="store_true", help="rocBLAS/rocSPARSE/... names (hipify's --roc)")
    translate.add_argument("--launch-syntax", choices=("chevrons", "hipLaunchKernelGGL"), default="chevrons")
    translate.add_argument(
        "--hip-kernel-execution-syntax",
        action="store_true",
        help="hipify-clang's spelling of --launch-syntax hipLaunchKernelGGL",
    )
    translate.add_argument(
        "--cuda-kernel-execution-syntax",
        action="store_true",
        help="hipify-clang's spelling of --launch-syntax chevrons (the default)",
    )
    translate.add_argument("--experimental", action="store_true", help="also rename HIP's experimental APIs")
    translate.add_argument("--translate-comments", action="store_true")
    translate.add_argument("--translate-strings", action="store_true")
    translate.add_argument("--hipify-clang", dest="hipify_clang", default="", help="path to hipify-clang")
    translate.add_argument("--cuda-path", default="", help="CUDA toolkit for hipify-clang")
    translate.add_argument("-I", "--include-dir", action="append", default=[], dest="include_dirs")
    translate.add_argument("--timeout", type=float, default=60.0, help="per-file limit for hipify-clang (s)")
    translate.add_argument("--exclude", action="append", default=[], metavar="GLOB")

    explain_cmd = sub.add_parser("explain", help="show a rule's documentation")
    explain_cmd.add_argument("rule", help="code (ROC101) or name")
    sub.add_parser("rules", help="list the rule catalogue")
    sub.add_parser("docs", help="print docs/rules.md")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "scan":
            return _scan(args)
        if args.command == "translate":
            # inside: keeps `python -m scanner --help` from loading libclang (scanner.translate)
            from scanner.translate.cli import run_translate

            return run_translate(args)
        if args.command == "explain":
            return _explain(args.rule)
        if args.command == "rules":
            return _rules()
        if args.command == "docs":
            sys.stdout.write(markdown(list(catalogue().values())))
            return EXIT_OK
    except (ConfigError, TargetError, ValueError) as exc:
        print(f"rocport: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_USAGE


def _options(args) -> ScanOptions:
    if args.jobs < 1:
        raise ConfigError("--jobs must be at least 1")
    target = TargetProfile.parse(args.targets, args.rocm) if (args.targets or args.rocm) else TargetProfile()
    base = ScanOptions(
        target=target,
        jobs=args.jobs,
        exclude=tuple(args.exclude),
        translate=args.translate or args.compile_check,
        include_dirs=tuple(args.include_dirs),
        defines=tuple(args.defines),
        compile_check=args.compile_check,
        hipcc=args.hipcc,
        hip_compiler=args.hip_compiler,
        compile_args=tuple(args.compile_args),
    )
    return base.merged(
        compile_commands=args.compile_commands,
        cuda_path=args.cuda_path,
        timeout_seconds=args.timeout,
        max_file_bytes=args.max_file_bytes,
    )


def _scan(args) -> int:
    root = Path(args.path)
    target = _upload_target(args, root) if args.upload else None
    if target is None or args.output:
        return _scan_to(args, root, Path(args.output) if args.output else None, target)
    with tempfile.TemporaryDirectory(prefix="rocport-upload-") as tmp:  # the report, until it is sent
        return _scan_to(args, root, Path(tmp) / "report.json", target)


def _scan_to(args, root: Path, report_path: Path | None, target=None) -> int:
    # inside: scanner.repository loads libclang (suppressions), which `python -m scanner --help` does without
    from scanner import repository

    # inside: scanner.pool loads libclang (the engine), which `python -m scanner --help` does without
    from scanner.pool import WorkerPool

    options, jobs = plan(root, _options(args), read_config=not args.no_config)
    if args.targets or args.rocm:  # the command line wins over .rocport.toml
        options = options.merged(target=_options(args).target)
    if args.offload_arch:
        if not _GFX.match(args.offload_arch):
            raise ConfigError(f"--offload-arch: unknown GPU target {args.offload_arch!r} (e.g. gfx90a)")
        options = options.merged(compile_arch=args.offload_arch)
    if target is not None:  # the portal's own scans translate with the built-in backend: the same figures
        options = options.merged(translate=True, translate_backend="builtin")
    rules = select(list(options.enable), list(options.disable))
    out = open(report_path, "w", encoding="utf-8") if report_path else sys.stdout
    try:
        report = _report(args, out, rules, target)
        summary = Summary(submodules_missing=list(options.submodules_missing))
        report.begin(str(root.resolve()), options)
        with _progress(args, len(jobs)) as bar:
            for result in WorkerPool(options, options.jobs).run(jobs):
                summary.add(result)
                report.add(result)
                bar.update(1)
            extra = repository.finalize(root.resolve(), options, jobs)
            if extra is not None:  # the repository-level result (path "."), after every file
                summary.add(extra)
                report.add(extra)
        report.end(summary)
    except RuntimeError as exc:
        print(f"rocport: scan failed: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    finally:
        if out is not sys.stdout:
            out.close()
    if target is not None and not _upload(target, report_path):
        return EXIT_FAILURE
    if args.fail_on != "never" and summary.worst is not None and summary.worst.rank >= Severity(args.fail_on).rank:
        return EXIT_FINDINGS
    return EXIT_OK


def _upload_target(args, root: Path):
    # inside: urllib.request, http.client and ssl (about 30 ms) load only for --upload
    from scanner.upload import UploadError, prepare

    if args.format != "json":
        raise ValueError("--upload sends the JSON report: add --format json")
    try:
        return prepare(
            args.upload, args.token, root, repository=args.repository, commit=args.commit, branch=args.branch
        )
    except UploadError as exc:
        raise ValueError(str(exc)) from None


def _upload(target, report_path: Path) -> bool:
    # inside: urllib.request, http.client and ssl (about 30 ms) load only for --upload
    from scanner.upload import UploadError, send

    try:
        answer = send(target, report_path)
    except UploadError as exc:
        print(f"rocport: upload failed: {exc}", file=sys.stderr)
        return False
    counts = answer.get("tracking", {})
    print(
        f"rocport: uploaded as scan {answer.get('scan')}: {answer.get('url', '')} ({counts.get('new', 0)} new, "
        f"{counts.get('fixed', 0)} fixed, {counts.get('reopened', 0)} reopened)",
        file=sys.stderr,
    )
    return True


def _report(args, out, rules, target=None):
    # With --upload, the commit's file list lets the portal tell a deleted file from one left out, and translations
    # keep their statistics only (the portal stores nothing else of them).
    extra = {"tree": target.tree} if target is not None and target.tree is not None else None
    options = WriterOptions(show_suppressed=args.show_suppressed, extra=extra, slim=target is not None)
    return FORMATS[args.format].writer(out, rules, options)


def _progress(args, total: int):
    enabled = args.progress == "always" or (args.progress == "auto" and sys.stderr.isatty() and total > 1)
    return tqdm(total=total, unit="file", disable=not enabled, file=sys.stderr, leave=False)


def _explain(name: str) -> int:
    rule = resolve(name)  # a code, a name, or a name the rule had before
    if rule is not None:
        sys.stdout.write(explain(rule))
        return EXIT_OK
    print(f"rocport: error: no rule {name!r}; see `python -m scanner rules`", file=sys.stderr)
    return EXIT_USAGE


def _rules() -> int:
    for rule in catalogue().values():
        print(f"{rule.code}  {rule.name:<40} {rule.risk.value:<20} {rule.severity.value:<8} {rule.summary}")
    return EXIT_OK

"""manage.py demo: a local git repository with a few commits of the bundled CUDA project, a demo team and user,
and a scan of each commit, so the pages show new, fixed and reopened findings; the commits are laid a week apart
(five weeks ago to two weeks ago), with a week of review and triage between two of them, so that the migration
progress has a history, a burn-down and a forecast to show.

The repository is built under var/demo-repo from demo/cuda-demo; it is cloned like any other (file://), which
needs ROCPORT_ALLOW_LOCAL_REPOS=1 (`make run` sets it).
"""

from __future__ import annotations

import shutil
import subprocess
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db.models import F
from django.utils import timezone

from portal.accounts.models import Membership, Team
from portal.files import actions as file_actions
from portal.files.models import TranslationReview
from portal.files.queries import file_version
from portal.findings import actions as finding_actions
from portal.findings.models import Finding, FindingEvent
from portal.reporting import figures
from portal.repositories.models import Repository
from portal.scans.actions import do_create_scan
from portal.scans.constants import ScanTrigger
from portal.scans.models import Scan
from portal.scans.pipeline import runner

DEMO_USER, DEMO_PASSWORD = "demo", "rocport-demo"
_FIX = (
    "  int lane = threadIdx.x % 32;\n  int warp = threadIdx.x / 32;\n",
    "  int lane = threadIdx.x % warpSize;\n  int warp = threadIdx.x / warpSize;\n",
)
_NEW = (
    "void capture(cudaStream_t stream, cudaGraph_t *graph) {\n",
    "void legacy_sync() { cudaThreadSynchronize(); }\n\nvoid capture(cudaStream_t stream, cudaGraph_t *graph) {\n",
)


class Command(BaseCommand):
    help = "Create the demo team, user and repository, and scan three commits of it"

    def add_arguments(self, parser):
        parser.add_argument("--source", default=str(settings.BASE_DIR / "demo" / "cuda-demo"))
        parser.add_argument(
            "--reset",
            action="store_true",
            help="build the demo repository anew and scan it again even when it was set up before",
        )

    def handle(self, source, reset=False, **options):
        if not settings.ROCPORT_ALLOW_LOCAL_REPOS:
            raise CommandError("the demo clones a local repository: set ROCPORT_ALLOW_LOCAL_REPOS=1")
        repo_dir = settings.VAR_DIR / "demo-repo"
        team, _ = Team.objects.get_or_create(name="Demo team", defaults={"slug": "demo-team"})
        user, _ = get_user_model().objects.get_or_create(username=DEMO_USER)
        if not user.check_password(DEMO_PASSWORD):
            # Only when it differs: a new hash (a new salt) signs out every session of the user, and `make run`
            # runs this command at each start.
            user.set_password(DEMO_PASSWORD)
            user.save()
        Membership.objects.update_or_create(user=user, team=team, defaults={"role": Membership.Role.MANAGER})
        existing = Repository.objects.filter(team=team, name="cuda-demo").first()
        if existing and existing.scans.exists() and (repo_dir / ".git").is_dir() and not reset:
            # A second `make run` keeps what the first one made: its scans, and the triage done since.
            self.stdout.write(
                f"demo already set up ({existing.scans.count()} scans); `manage.py demo --reset` builds it anew"
            )
            self.stdout.write(f"demo login: {DEMO_USER} / {DEMO_PASSWORD}")
            return
        commits = build_repository(Path(source), repo_dir)
        repository, _ = Repository.objects.update_or_create(
            team=team, name="cuda-demo", defaults={"clone_url": f"file://{repo_dir}", "default_branch": "main"}
        )
        # A week between steps, the first five weeks ago: the pages then show a burn-down, a forecast (or why
        # there is none) and findings open for more than 30 days, as a team's history would.
        today = timezone.localdate()
        steps = [(commits[0], 5), (commits[1], 4), (None, 3), (commits[2], 2)]
        for commit, weeks_ago in steps:
            day = today - timedelta(weeks=weeks_ago)
            with figures.dated(day):
                if commit is None:
                    self._review_and_triage(repository, user, day)
                    continue
                scan = do_create_scan(
                    repository, branch="main", commit_sha=commit, trigger=ScanTrigger.DEMO, enqueue=False
                )
                runner.run(scan.pk)
            _backdate(scan, day)
            scan.refresh_from_db()
            tracking = scan.summary.get("tracking", {})
            self.stdout.write(
                f"scan {scan.pk} of {commit[:10]}: {scan.status} {scan.error_message} "
                f"(new {tracking.get('new', 0)}, fixed {tracking.get('fixed', 0)}, "
                f"reopened {tracking.get('reopened', 0)})".replace("  ", " ")
            )
        self.stdout.write(f"demo login: {DEMO_USER} / {DEMO_PASSWORD}")

    def _review_and_triage(self, repository, user, day) -> None:
        """A week of the team's work between the second and third commits: gemm.cu's translation approved, and
        one finding accepted as a risk, each with the reason a person would give."""
        version = file_version(repository, "src/gemm.cu")
        if version is not None and version.has_translation:
            file_actions.check_review_translation(
                repository,
                "src/gemm.cu",
                version,
                TranslationReview.State.OK,
                version.scanned.blob_sha,
                version.translation_sha,
                acting_user=user,
            )
            self.stdout.write("review of src/gemm.cu: translation OK")
        accepted = Finding.objects.filter(repository=repository, branch="main", state="open", severity="low")[:1]
        triaged = finding_actions.do_triage_findings(
            Finding.objects.filter(pk__in=list(accepted.values_list("pk", flat=True))),
            Finding.Triage.ACCEPTED_RISK,
            "Demo: measured on MI300X, the difference is within tolerance.",
            acting_user=user,
        )
        shift = timezone.now().date() - day
        FindingEvent.objects.filter(finding__repository=repository, kind="triaged").update(created=F("created") - shift)
        self.stdout.write(f"triage: {triaged} finding accepted as a risk")


def _backdate(scan, day) -> None:
    """The scan and the findings' events it wrote, moved to `day` (same time of day)."""
    scan.refresh_from_db()
    shift = timezone.now().date() - day
    Scan.objects.filter(pk=scan.pk).update(
        created=scan.created - shift,
        started=(scan.started - shift) if scan.started else None,
        finished=(scan.finished - shift) if scan.finished else None,
    )
    FindingEvent.objects.filter(scan=scan).update(created=F("created") - shift)


def build_repository(source: Path, target: Path) -> list[str]:
    """Three commits: the project; a fix of two findings plus a new one; the fix reverted (reopened)."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target)
    git = _git(target)
    git("init", "--quiet", "--initial-branch=main")
    git("add", "-A")
    git("commit", "--quiet", "-m", "Initial import of the CUDA project")
    softmax, comm = target / "src" / "softmax.cu", target / "src" / "comm.cu"
    original = softmax.read_text()
    softmax.write_text(original.replace(*_FIX))
    comm.write_text(comm.read_text().replace(*_NEW))
    git("commit", "--quiet", "-am", "Use warpSize for lane and warp ids; add a legacy sync helper")
    softmax.write_text(original)
    git("commit", "--quiet", "-am", "Revert the warp-size change (it broke a benchmark)")
    out = git("rev-list", "--reverse", "main")
    return out.split()


def _git(cwd: Path):
    env = {
        "GIT_AUTHOR_NAME": "ROCport demo",
        "GIT_AUTHOR_EMAIL": "demo@rocport.invalid",
        "GIT_COMMITTER_NAME": "ROCport demo",
        "GIT_COMMITTER_EMAIL": "demo@rocport.invalid",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "PATH": "/usr/bin:/bin:/usr/local/bin",
    }

    def run(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout

    return run

"""The team notifications page: every member sees the setting and the newest emails; managers change it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from portal.accounts.access import membership_for, require_manage
from portal.statuses.actions import do_save_notification_setting
from portal.statuses.forms import NotificationForm
from portal.statuses.models import NotificationSetting, ScanNotification


@require_http_methods(["GET", "POST"])
@login_required
def team_notifications(request, team_id: int):
    membership = membership_for(request.user, team_id)  # 404 for another team, as for a missing one
    team = membership.team
    setting = NotificationSetting.objects.filter(team=team).first()
    initial = (
        {
            "enabled": setting.enabled,
            "all_managers": setting.all_managers,
            "recipients": "\n".join(setting.recipients),
            "threshold": setting.threshold,
        }
        if setting
        else None
    )
    form = NotificationForm(initial=initial)
    if request.method == "POST":
        require_manage(membership)
        form = NotificationForm(request.POST)
        if form.is_valid():
            try:
                do_save_notification_setting(team, **form.cleaned_data, acting_user=request.user)
            except ValidationError as exc:
                form.add_error(None, exc)
            else:
                messages.success(request, _("Notification settings saved."))
                return redirect("statuses:notifications", team_id=team.pk)
    recent = ScanNotification.objects.filter(team=team).select_related("scan__repository").order_by("-created")[:20]
    return render(
        request,
        "statuses/notifications.html",
        {"team": team, "membership": membership, "form": form, "setting": setting, "recent": recent},
    )

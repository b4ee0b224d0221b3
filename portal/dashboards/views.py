"""Dashboards (placeholder until the dashboards work lands): the portfolio redirects to the repository list."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect


@login_required
def portfolio(request):
    return redirect("repositories:list")


@login_required
def repository_dashboard(request, pk: int):
    return redirect("repositories:detail", pk=pk)

"""The user's language: kept on their profile (Profile.language), and given to the browser as Django's language
cookie, the one the header's switch sets and LocaleMiddleware reads, when they save the profile and at each
sign-in. The header's switch still changes one browser's language until the next sign-in."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.utils import translation

from portal.accounts.models import Profile


def of_page() -> str:
    """The language this request is answered in, as one of settings.LANGUAGES."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def preferred(user) -> str | None:
    """The language on the user's profile, or None before they saved one."""
    return Profile.objects.filter(user=user).values_list("language", flat=True).first()


def remember(response: HttpResponse, language: str) -> HttpResponse:
    """The browser keeps `language` as Django's own set_language view would have it keep it."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response

"""Security headers that Django's SecurityMiddleware and django-csp do not set (OWASP Secure Headers Project).

- Permissions-Policy: no page needs the camera, microphone, location, payment or USB, so none may ask;
- Cross-Origin-Resource-Policy: another site cannot embed our answers (a team's data) as its own resources;
- X-Permitted-Cross-Domain-Policies: no Flash/PDF cross-domain policy file is honoured.
A view that sets one of them itself keeps its own value.
"""

from __future__ import annotations

HEADERS = {
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    "Cross-Origin-Resource-Policy": "same-origin",
    "X-Permitted-Cross-Domain-Policies": "none",
}


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response

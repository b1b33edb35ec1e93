"""A page opened with a method it does not take (a bookmarked or typed address of a form's
action, such as /accounts/logout/) answers our own translated page, not Django's empty 405: the
status and its ``Allow`` header stay, and the page says what happened and leads back."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


class MethodNotAllowedPage:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 405 and not response.content and request.method in ("GET", "HEAD"):
            response.content = render_to_string("405.html", request=request).encode()
            response["Content-Type"] = "text/html; charset=utf-8"
        return response

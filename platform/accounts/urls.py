from __future__ import annotations

from django.urls import path

from accounts import views

app_name = "accounts"
urlpatterns = [
    path("guest/", views.guest, name="guest"),
    path("signup/", views.signup, name="signup"),
    path("login/", views.login_view, name="login"),
    path("logout/", views.logout_view, name="logout"),
]

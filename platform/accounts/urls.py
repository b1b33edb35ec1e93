from __future__ import annotations

from django.urls import path

from accounts import views

app_name = "accounts"
urlpatterns = [
    path("guest/", views.guest, name="guest"),
    path("signup/", views.signup, name="signup"),
    path("login/", views.login_view, name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("account/", views.account, name="account"),
    path("password/", views.PasswordChange.as_view(), name="password_change"),
    path("password/reset/", views.PasswordReset.as_view(), name="password_reset"),
    path("password/reset/sent/", views.PasswordResetDone.as_view(), name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", views.PasswordResetConfirm.as_view(), name="password_reset_confirm"),
]

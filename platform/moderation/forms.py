from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from moderation.models import Report


class ReportForm(forms.Form):
    reason = forms.ChoiceField(label=_("Reason"), choices=Report.Reason.choices, widget=forms.RadioSelect)
    note = forms.CharField(
        label=_("Anything the moderators should know (optional)"),
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "dir": "auto"}),
    )

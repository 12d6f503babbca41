"""Forms for the notification settings page; the services do the checking that matters."""

from __future__ import annotations

from zoneinfo import available_timezones

from django import forms

from .models import Preference

COMMON_ZONES = ("UTC", "Europe/London", "Europe/Paris", "America/New_York", "America/Los_Angeles", "Asia/Tokyo")


def _zone_choices() -> list[tuple[str, str]]:
    rest = sorted(z for z in available_timezones() if "/" in z and not z.startswith(("Etc/", "SystemV/")))
    return [(z, z) for z in COMMON_ZONES] + [(z, z) for z in rest if z not in COMMON_ZONES]


class PreferenceForm(forms.Form):
    mode = forms.ChoiceField(label="Email me", choices=Preference.Mode.choices, widget=forms.RadioSelect)
    time_zone = forms.ChoiceField(label="My time zone", choices=_zone_choices)
    quiet_from = forms.TimeField(
        label="Quiet hours from",
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text="Emails that fall in your quiet hours wait until they end. Leave both empty for none.",
    )
    quiet_until = forms.TimeField(
        label="Quiet hours until", required=False, widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )


class AwayForm(forms.Form):
    first_day = forms.DateField(label="First day away", widget=forms.DateInput(attrs={"type": "date"}))
    last_day = forms.DateField(label="Last day away", widget=forms.DateInput(attrs={"type": "date"}))

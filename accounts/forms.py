"""Forms for the account settings page."""

from django import forms

from accounts.models import Profile


class DisplayNameForm(forms.Form):
    display_name = forms.CharField(
        max_length=Profile._meta.get_field("display_name").max_length,
        required=False,
        help_text="The name other players see at the table. Leave it empty to use your username.",
    )

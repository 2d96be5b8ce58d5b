"""Public forms: registration, editing a registration, master-class sign-up."""

from __future__ import annotations

from typing import Any

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from phonenumber_field.formfields import PhoneNumberField

from .models import LANGUAGE_CHOICES, Experience, MasterClassSession


def _clean_name(value: str) -> str:
    value = " ".join(value.split())
    if not any(ch.isalpha() for ch in value):
        raise forms.ValidationError(_("Please enter your name in letters (any alphabet)."))
    return value


class HoneypotMixin(forms.Form):
    """A field people never see (hidden by CSS, skipped by keyboard); bots fill it in."""

    website = forms.CharField(
        required=False,
        label=_("Leave this field empty"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )

    @property
    def is_spam(self) -> bool:
        return bool(self.data.get(self.add_prefix("website")))


def _language_initial() -> str:
    lang = (get_language() or "en")[:2]
    return lang if lang in dict(LANGUAGE_CHOICES) else "en"


class RegistrationForm(HoneypotMixin, forms.Form):
    name = forms.CharField(
        label=_("Full name"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "name", "autofocus": True}),
    )
    email = forms.EmailField(
        max_length=254,  # the model's column (RFC 5321 path limit)
        label=_("E-mail"),
        widget=forms.EmailInput(attrs={"autocomplete": "email", "inputmode": "email"}),
        help_text=_("We send a link to confirm your address and to change your registration."),
    )
    phone = PhoneNumberField(
        label=_("Phone"),
        region="CA",
        widget=forms.TextInput(attrs={"autocomplete": "tel", "inputmode": "tel"}),
        help_text=_("A Canadian number such as 416 555 0123, or an international one with +."),
    )
    club = forms.CharField(label=_("Club or city"), max_length=150, required=False)
    experience = forms.ChoiceField(
        label=_("Experience"), choices=[("", _("Choose…")), *Experience.choices]
    )
    language = forms.ChoiceField(label=_("Preferred language"), choices=LANGUAGE_CHOICES)
    masterclass = forms.ModelChoiceField(
        label=_("Master class for newcomers (optional)"),
        queryset=MasterClassSession.objects.none(),
        required=False,
        empty_label=_("No, thank you"),
        help_text=_("New to Modern Nardy? Learn the rules before the tournament."),
    )
    consent = forms.BooleanField(
        label=_(
            "I agree that the organisers store my name, e-mail and phone to run the "
            "tournament, as the privacy notice says."
        ),
        required=True,
    )

    def __init__(self, *args: Any, sessions: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"].initial = _language_initial()
        if sessions is not None:
            self.fields["masterclass"].queryset = sessions
        if sessions is None or not sessions.exists():
            del self.fields["masterclass"]
        self.helper = FormHelper()
        self.helper.add_input(Submit("submit", _("Register"), css_class="btn-lg w-100"))
        self.fields["website"].widget.attrs["class"] = "hp-field"

    def clean_name(self) -> str:
        return _clean_name(self.cleaned_data["name"])

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("masterclass") and data.get("experience") != Experience.NEWCOMER:
            self.add_error(
                "masterclass",
                _("The master class is for newcomers; choose 'Newcomer' or leave it out."),
            )
        return data


class RegistrationEditForm(forms.Form):
    name = forms.CharField(label=_("Full name"), max_length=150)
    phone = PhoneNumberField(label=_("Phone"), region="CA")
    club = forms.CharField(label=_("Club or city"), max_length=150, required=False)
    experience = forms.ChoiceField(label=_("Experience"), choices=Experience.choices)
    language = forms.ChoiceField(label=_("Preferred language"), choices=LANGUAGE_CHOICES)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.add_input(Submit("save", _("Save changes")))

    def clean_name(self) -> str:
        return _clean_name(self.cleaned_data["name"])


class SignupForm(HoneypotMixin, forms.Form):
    name = forms.CharField(
        label=_("Full name"), max_length=150, widget=forms.TextInput(attrs={"autocomplete": "name"})
    )
    email = forms.EmailField(
        max_length=254,  # the model's column (RFC 5321 path limit)
        label=_("E-mail"),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    phone = PhoneNumberField(
        label=_("Phone (optional)"),
        region="CA",
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "tel", "inputmode": "tel"}),
    )
    language = forms.ChoiceField(label=_("Preferred language"), choices=LANGUAGE_CHOICES)
    consent = forms.BooleanField(
        label=_("I agree that the organisers store my contact details to run the master class."),
        required=True,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"].initial = _language_initial()
        self.fields["website"].widget.attrs["class"] = "hp-field"
        self.helper = FormHelper()
        self.helper.add_input(Submit("submit", _("Sign up"), css_class="btn-lg w-100"))

    def clean_name(self) -> str:
        return _clean_name(self.cleaned_data["name"])

"""Public forms: registration, editing a registration, master-class sign-up."""

from __future__ import annotations

from typing import Any

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms
from django.urls import reverse
from django.utils.functional import lazy
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_lazy as _
from phonenumber_field.formfields import PhoneNumberField

from common import dates

from . import email_typos
from .models import LANGUAGE_CHOICES, Announcement, Experience, MasterClassSession
from .services.masterclass import signup_refusal

#: The example of a phone number the forms give, in their help and in their error alike (the
#: field's own error gave the library's example, "(506) 234-5678", under a help with this one).
PHONE_EXAMPLE = "416 555 0123"
PHONE_HELP = lazy(
    lambda: (
        gettext("A Canadian number such as %(example)s, or an international one with +.")
        % {"example": PHONE_EXAMPLE}
    ),
    str,
)()
PHONE_INVALID = lazy(
    lambda: (
        gettext(
            "Enter a valid phone number: a Canadian one such as %(example)s, or an international "
            "one with +."
        )
        % {"example": PHONE_EXAMPLE}
    ),
    str,
)()


def phone_field(**kwargs: Any) -> PhoneNumberField:
    """A phone number as every form asks for it: Canadian by default, its error giving the
    help's example."""
    kwargs.setdefault("widget", forms.TextInput(attrs={"autocomplete": "tel", "inputmode": "tel"}))
    return PhoneNumberField(region="CA", error_messages={"invalid": PHONE_INVALID}, **kwargs)


def _clean_name(value: str) -> str:
    value = " ".join(value.split())
    if not any(ch.isalpha() for ch in value):
        raise forms.ValidationError(_("Please enter your name in letters (any alphabet)."))
    return value


class EmailTypoMixin(forms.Form):
    """An address whose domain looks like a typo of a common one ("elena@gmial.com") is sent
    back once with the question "did you mean elena@gmail.com?"; sent again unchanged it is
    taken as typed (an unknown domain is never refused). The address asked about travels in a
    hidden field."""

    email_as_typed = forms.CharField(required=False, widget=forms.HiddenInput)

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"]
        meant = email_typos.suggestion(email)
        if meant is not None and self.data.get(self.add_prefix("email_as_typed")) != email:
            # The page shows the address in the hidden field: sent again, it is kept.
            self.data = self.data.copy()
            self.data[self.add_prefix("email_as_typed")] = email
            raise forms.ValidationError(
                gettext(
                    "Did you mean %(meant)s? Correct the address, or send the form again to "
                    "keep %(email)s."
                )
                % {"meant": meant, "email": email},
                code="typo",
            )
        return email


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


def _consent_label(text: str) -> str:
    """The consent box's label, its "privacy notice" a link to the notice."""
    return format_html(
        text,
        link=format_html(
            '<a href="{}" target="_blank" rel="noopener">', reverse("registrations:privacy")
        ),
        end=mark_safe("</a>"),
    )


class SessionChoiceField(forms.ModelChoiceField):
    """A master-class session as a person reads it: title, day and time, place, seats."""

    def label_from_instance(self, obj: MasterClassSession) -> str:
        label = (
            f"{obj.localized_title} — {dates.time_range(obj.starts_at, obj.ends_at)}, {obj.place}"
        )
        if obj.is_full:
            return label + " · " + gettext("full: waiting list")
        left = obj.seats_left
        return label + " · " + ngettext("%(n)d seat left", "%(n)d seats left", left) % {"n": left}


def _language_initial() -> str:
    lang = (get_language() or "en")[:2]
    return lang if lang in dict(LANGUAGE_CHOICES) else "en"


class RegistrationForm(EmailTypoMixin, HoneypotMixin, forms.Form):
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
    phone = phone_field(label=_("Phone"), help_text=PHONE_HELP)
    club = forms.CharField(label=_("Club or city"), max_length=150, required=False)
    experience = forms.ChoiceField(
        label=_("Experience"), choices=Experience.choices, widget=forms.RadioSelect
    )
    language = forms.ChoiceField(
        label=_("Preferred language"),
        choices=LANGUAGE_CHOICES,
        help_text=_("The language of our e-mails to you."),
    )
    masterclass = SessionChoiceField(
        label=_("Master class for newcomers (optional)"),
        queryset=MasterClassSession.objects.none(),
        required=False,
        blank=True,
        empty_label=_("No, thank you"),
        widget=forms.RadioSelect,
        help_text=_("New to Modern Nardy? Learn the rules before the tournament."),
    )
    consent = forms.BooleanField(required=True)

    def __init__(
        self, *args: Any, sessions: Any = None, waiting_list: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"].initial = _language_initial()
        if sessions is not None:
            self.fields["masterclass"].queryset = sessions
        if sessions is None or not sessions.exists():
            del self.fields["masterclass"]
        self.fields["consent"].label = _consent_label(
            gettext(
                "I agree that the organisers store my name, e-mail and phone to run the "
                "tournament, as the {link}privacy notice{end} says."
            )
        )
        self.helper = FormHelper()
        button = _("Join the waiting list") if waiting_list else _("Register")
        self.helper.add_input(Submit("submit", button, css_class="btn-lg w-100"))
        self.fields["website"].widget.attrs["class"] = "hp-field"

    def clean_name(self) -> str:
        return _clean_name(self.cleaned_data["name"])

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("masterclass") and data.get("experience"):
            # The one rule, the same as the sign-up page's (services.masterclass).
            refusal = signup_refusal(experience=data["experience"])
            if refusal is not None:
                self.add_error("masterclass", refusal)
        return data


class RegistrationEditForm(forms.Form):
    name = forms.CharField(label=_("Full name"), max_length=150)
    phone = phone_field(label=_("Phone"), help_text=PHONE_HELP)
    club = forms.CharField(label=_("Club or city"), max_length=150, required=False)
    experience = forms.ChoiceField(
        label=_("Experience"), choices=Experience.choices, widget=forms.RadioSelect
    )
    language = forms.ChoiceField(
        label=_("Preferred language"),
        choices=LANGUAGE_CHOICES,
        help_text=_("The language of our e-mails to you."),
    )

    def __init__(self, *args: Any, entered: bool = False, **kwargs: Any) -> None:
        """``entered``: the player is on the tournament's list, whose names and clubs the
        pairings and standings show: those two are the organisers' to change from then on."""
        super().__init__(*args, **kwargs)
        if entered:
            for name in ("name", "club"):
                self.fields[name].disabled = True
                self.fields[name].help_text = _(
                    "As on the tournament's list: please ask the organisers to change it."
                )
        self.helper = FormHelper()
        self.helper.add_input(Submit("save", _("Save changes")))

    def clean_name(self) -> str:
        return _clean_name(self.cleaned_data["name"])


class SignupForm(EmailTypoMixin, HoneypotMixin, forms.Form):
    name = forms.CharField(
        label=_("Full name"), max_length=150, widget=forms.TextInput(attrs={"autocomplete": "name"})
    )
    email = forms.EmailField(
        max_length=254,  # the model's column (RFC 5321 path limit)
        label=_("E-mail"),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    phone = phone_field(label=_("Phone (optional)"), required=False, help_text=PHONE_HELP)
    language = forms.ChoiceField(
        label=_("Preferred language"),
        choices=LANGUAGE_CHOICES,
        help_text=_("The language of our e-mails to you."),
    )
    experience = forms.ChoiceField(
        label=_("Experience"),
        choices=Experience.choices,
        widget=forms.RadioSelect,
        help_text=_("The master class is for newcomers: those who have never played."),
    )
    consent = forms.BooleanField(required=True)

    def clean_experience(self) -> str:
        experience: str = self.cleaned_data["experience"]
        refusal = signup_refusal(experience=experience)  # the registration form's rule too
        if refusal is not None:
            raise forms.ValidationError(refusal)
        return experience

    def __init__(self, *args: Any, waiting_list: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "language" not in self.initial:
            self.fields["language"].initial = _language_initial()
        self.fields["website"].widget.attrs["class"] = "hp-field"
        self.fields["consent"].label = _consent_label(
            gettext(
                "I agree that the organisers store my contact details to run the master "
                "class, as the {link}privacy notice{end} says."
            )
        )
        self.helper = FormHelper()
        button = _("Join the waiting list") if waiting_list else _("Sign up")
        self.helper.add_input(Submit("submit", button, css_class="btn-lg w-100"))

    def clean_name(self) -> str:
        return _clean_name(self.cleaned_data["name"])


class LostLinkForm(HoneypotMixin, forms.Form):
    """ "I lost my link": the links of every registration and sign-up under an address."""

    email = forms.EmailField(
        max_length=254,
        label=_("Your e-mail address"),
        widget=forms.EmailInput(attrs={"autocomplete": "email", "inputmode": "email"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["website"].widget.attrs["class"] = "hp-field"
        self.helper = FormHelper()
        self.helper.form_action = reverse("registrations:lost_link")
        # (crispy's Submit is "btn btn-primary" already: a second colour class made the label
        # the button's own colour, unreadable)
        self.helper.add_input(Submit("send", _("E-mail me my links")))


class AnnouncementForm(forms.ModelForm):
    """A message to the entrants or the waiting list, in English, Russian or both: each person
    gets their language's text, or the other one if only one is written."""

    class Meta:
        model = Announcement
        fields = ["audience", "subject", "body", "subject_ru", "body_ru"]
        widgets = {
            "audience": forms.RadioSelect,
            "body": forms.Textarea(attrs={"rows": 6}),
            "body_ru": forms.Textarea(attrs={"rows": 6}),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.add_input(Submit("preview", _("Preview")))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        english = (data.get("subject", "").strip(), data.get("body", "").strip())
        russian = (data.get("subject_ru", "").strip(), data.get("body_ru", "").strip())
        for pair, fields in ((english, ("subject", "body")), (russian, ("subject_ru", "body_ru"))):
            if any(pair) and not all(pair):
                missing = fields[0] if not pair[0] else fields[1]
                self.add_error(missing, _("Write both the subject and the message, or neither."))
        if not all(english) and not all(russian):
            raise forms.ValidationError(_("Write the message in English, in Russian or in both."))
        return data


class SessionForm(forms.ModelForm):
    """A master-class session on the organisers' pages: title in two languages, when (Toronto
    time), how long, where, the language it is taught in, seats, and the tournament it is
    offered with (none: offered with every tournament)."""

    class Meta:
        model = MasterClassSession
        fields = [
            "title",
            "title_ru",
            "starts_at",
            "duration_minutes",
            "place",
            "language",
            "seats",
            "tournament",
        ]
        widgets = {
            "starts_at": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from championship.models import Tournament

        super().__init__(*args, **kwargs)
        self.fields["starts_at"].input_formats = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]
        self.fields["starts_at"].help_text = _("Toronto time.")
        self.fields["seats"].min_value = 1
        self.fields["seats"].widget.attrs["min"] = 1
        tournament = self.fields["tournament"]
        tournament.label_from_instance = lambda t: t.localized_name  # type: ignore[attr-defined]
        tournament.queryset = Tournament.objects.exclude(  # type: ignore[attr-defined]
            status=Tournament.Status.FINISHED
        ).order_by("-starts_on")
        tournament.empty_label = _("Every tournament")  # type: ignore[attr-defined]
        tournament.help_text = _(
            "The registration form of this tournament offers the session; empty: every one's."
        )
        self.helper = FormHelper()
        self.helper.add_input(Submit("save", _("Save the session")))

    def clean_seats(self) -> int:
        seats: int = self.cleaned_data["seats"]
        if seats < 1:
            raise forms.ValidationError(_("A session has at least one seat."))
        return seats

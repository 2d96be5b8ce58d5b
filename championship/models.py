"""Tournaments. The championship issue extends this minimal model with systems, rounds and
pairings; registrations only need the fields below."""

from __future__ import annotations

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    venue = models.CharField(_("venue"), max_length=300, blank=True)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    entry_cap = models.PositiveIntegerField(
        _("entry cap"),
        null=True,
        blank=True,
        help_text=_("Registrations beyond this number go on the waiting list. Empty: no cap."),
    )
    registration_open = models.BooleanField(_("registration open"), default=True)
    description = models.TextField(_("description"), blank=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="tournament_ends_after_start",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament_detail", kwargs={"slug": self.slug})

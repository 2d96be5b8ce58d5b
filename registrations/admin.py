from django.contrib import admin

from .models import MasterClassSession, MasterClassSignup, OutboundEmail, Registration


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "tournament",
        "email",
        "phone",
        "experience",
        "status",
        "email_confirmed_at",
        "created_at",
    ]
    list_filter = ["tournament", "status", "experience", "language"]
    search_fields = ["name", "email", "club"]
    readonly_fields = ["consent_at", "created_at", "updated_at"]


class SignupInline(admin.TabularInline):
    model = MasterClassSignup
    extra = 0
    fields = ["name", "email", "phone", "language", "status", "created_at", "reminder_sent_at"]
    readonly_fields = ["created_at", "reminder_sent_at"]


@admin.register(MasterClassSession)
class MasterClassSessionAdmin(admin.ModelAdmin):
    list_display = ["title", "starts_at", "place", "language", "seats"]
    list_filter = ["language", "tournament"]
    inlines = [SignupInline]


@admin.register(MasterClassSignup)
class MasterClassSignupAdmin(admin.ModelAdmin):
    list_display = ["name", "session", "email", "status", "created_at", "reminder_sent_at"]
    list_filter = ["status", "session"]
    search_fields = ["name", "email"]


@admin.register(OutboundEmail)
class OutboundEmailAdmin(admin.ModelAdmin):
    list_display = ["kind", "object_id", "status", "attempts", "created_at", "sent_at"]
    list_filter = ["status", "kind"]
    readonly_fields = [
        "kind",
        "object_id",
        "attempts",
        "last_error",
        "created_at",
        "message_id",
        "sending_since",
        "sent_at",
    ]

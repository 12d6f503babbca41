"""Operators' view of the outbox: failed rows stand out, with the last error, and can be sent again."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from . import selectors, services
from .models import Away, Notification, Preference

if TYPE_CHECKING:
    NotificationAdminBase = admin.ModelAdmin[Notification]
    PreferenceAdminBase = admin.ModelAdmin[Preference]
    AwayAdminBase = admin.ModelAdmin[Away]
else:  # ModelAdmin is generic only to the type checker (as in api/admin.py)
    NotificationAdminBase = PreferenceAdminBase = AwayAdminBase = admin.ModelAdmin


@admin.register(Notification)
class NotificationAdmin(NotificationAdminBase):
    list_display = ("id", "kind", "status", "recipient", "game", "ply", "attempts", "created_at", "sent_at")
    list_filter = ("status", "kind")
    search_fields = ("recipient__username", "recipient__email", "invitation__email", "game__id")
    date_hierarchy = "created_at"
    raw_id_fields = ("recipient", "game", "invitation")
    readonly_fields = [f.name for f in Notification._meta.fields]
    actions = ["send_again"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # rows come from game events and invitations only

    @admin.action(description="Send the selected notifications again")
    def send_again(self, request: HttpRequest, queryset: QuerySet[Notification]) -> None:
        with transaction.atomic():
            for notification in queryset.exclude(status=Notification.Status.SENDING):
                services.notification_requeue(notification=notification)
        messages.info(request, "Queued again; a worker re-checks each before sending.")


@admin.register(Preference)
class PreferenceAdmin(PreferenceAdminBase):
    list_display = ("user", "mode", "time_zone", "quiet_from", "quiet_until", "unsubscribed_at")
    list_filter = ("mode",)
    search_fields = ("user__username", "user__email")
    raw_id_fields = ("user",)
    exclude = ("next_digest_at",)

    def save_model(self, request: HttpRequest, obj: Preference, form: Any, change: bool) -> None:
        """The sweep's times follow an operator's edit as they follow the settings page's
        (services.preference_update): the next digest hour, and the clocks in the time zone."""
        now = timezone.now()
        obj.next_digest_at = selectors.next_digest_at(obj, now)
        super().save_model(request, obj, form, change)
        services.clocks_recheck(user=obj.user, now=now)


@admin.register(Away)
class AwayAdmin(AwayAdminBase):
    list_display = ("user", "first_day", "last_day", "ended_at")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)

    def save_model(self, request: HttpRequest, obj: Away, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        services.clocks_recheck(user=obj.user, now=timezone.now())  # fewer days away: a clock may run out sooner

    def delete_model(self, request: HttpRequest, obj: Away) -> None:
        super().delete_model(request, obj)
        services.clocks_recheck(user=obj.user, now=timezone.now())

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Away]) -> None:
        users = {away.user for away in queryset.select_related("user")}
        super().delete_queryset(request, queryset)
        for user in users:
            services.clocks_recheck(user=user, now=timezone.now())

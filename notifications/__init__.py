"""Email notifications: an outbox written in the move's transaction, delivered by Celery workers.

The design in one page: docs/notifications.md.
"""

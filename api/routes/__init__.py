"""The API's endpoints, one router per concept; api/main.py mounts them under /api/."""

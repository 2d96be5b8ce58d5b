from django.contrib.admin.apps import AdminConfig as DjangoAdminConfig


class AdminConfig(DjangoAdminConfig):
    """``django.contrib.admin`` with our site (a throttled login), in INSTALLED_APPS instead
    of ``django.contrib.admin``."""

    default_site = "common.login.AdminSite"

from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("stories/<int:story_id>/", views.story, name="story"),
    path("stories/<int:story_id>/rate", views.rate, name="rate"),
    path("subscriptions/", views.subscriptions, name="subscriptions"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]

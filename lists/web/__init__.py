"""The web layer: views by page, their forms, the unit picker, the editor page and the JSON API.

`lists.urls` maps the URLs to the views here. Views stay thin: they read the
request, call the layers below and render a template.

May import every other package of `lists/`; nothing below imports from here.
"""

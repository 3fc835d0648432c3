from django import template

register = template.Library()


@register.filter
def get_item(mapping: dict, key):
    """mapping[key] in a template, or None."""
    return mapping.get(key) if hasattr(mapping, "get") else None

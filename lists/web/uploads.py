"""Uploads: roster files are small, so a body over Django's size limit is refused unread."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.files.uploadhandler import MemoryFileUploadHandler


class LimitedUploadHandler(MemoryFileUploadHandler):
    """Keeps an uploaded file in memory; a body declared larger than the limit is refused before any of it is read."""

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        if content_length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            raise RequestDataTooBig(f"the body is {content_length} bytes")
        return super().handle_raw_input(input_data, META, content_length, boundary, encoding)

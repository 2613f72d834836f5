from celery import shared_task

from lexicon import services


@shared_task(ignore_result=True)
def precompile_lexicon(code: str, version: int) -> None:
    """Build a new version's precompiled form, so web processes only load it."""
    services.get_lexicon(code, version)

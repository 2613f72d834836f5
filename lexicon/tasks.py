from celery import shared_task

from lexicon import services


@shared_task(ignore_result=True)
def precompile_lexicon(code: str, version: int) -> None:
    """Build a new version's precompiled form, so web processes only load it.

    The version was just approved, so anything this process holds under the same number
    is from an emptied or restored database: drop it and load the version afresh.
    """
    services.forget_loaded(code, version)
    services.get_lexicon(code, version)

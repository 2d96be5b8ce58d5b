"""Writes of the registrations app, one module per topic (reads are in ``selectors``):

- ``entries``: tournament registrations — registering, confirming the address, editing,
  withdrawing, entering again, check-in, fresh links for a lost e-mail;
- ``masterclass``: master-class sign-ups, cancellations and reminders;
- ``waiting_list``: the one place where free places and seats go to the waiting list;
- ``outbox``: e-mails recorded with what they are about, sent once by a worker;
- ``announcements``: the organisers' messages to the players, and their daily digest;
- ``privacy``: anonymising a person, on request or after the retention period.

Each service is keyword-only, named ``<entity>_<action>``, and validates (``full_clean``)
what it creates before saving it."""

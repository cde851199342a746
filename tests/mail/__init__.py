"""Tests of the mail desk against real servers (Dovecot, aiosmtpd); see servers.py."""

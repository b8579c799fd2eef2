((c-mode . ((indent-tabs-mode . nil) (c-file-style . "gnu"))))

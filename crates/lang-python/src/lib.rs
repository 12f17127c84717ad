//! Python: error sites of `.py` files.

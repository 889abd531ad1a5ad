"""A small list of made-up first names, the data for the makemore-style programs."""
WORDS = """ada alma amira anya arlo aria bea bodhi cara cleo dara eli ember esme ezra faye finn
gia hana ines iris jade juno kai kira lena leo lila luca mae mila nia noor nova ola omar pia
quinn rae remy rosa sage sami tess theo uma vera wren yara zane zoe""".split()

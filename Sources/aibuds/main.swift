// The aibuds command: see README.md.
print("aibuds")

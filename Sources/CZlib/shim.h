// zlib (inflate, deflate, crc32) for the zip files of Anki packages and backups.
#include <zlib.h>

/* placeholder until the scripted fake agent lands */
int main (void);
int main (void) { return 1; }

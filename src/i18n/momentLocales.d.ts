// moment's locale files define their locale on the moment they load; importing them yields nothing.
declare module 'moment/locale/*';

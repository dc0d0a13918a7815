"""The neural policies for Morpion Solitaire (the Morpion paper): planes, networks, training, play."""
